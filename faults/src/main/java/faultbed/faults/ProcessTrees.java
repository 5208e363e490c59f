package faultbed.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * A group's processes where no cgroup can hold them: every process that joined (recorded with its
 * start time, so a later process that reuses the pid is never taken for it) and all its descendants.
 * Stopping is the freezer's stand-in: SIGSTOP until no new member appears, so nothing forks away.
 * What a member reparents away from itself (a daemon's double fork) escapes, as it would not from
 * a cgroup; YARN containers do not do that.
 */
final class ProcessTrees {
  private ProcessTrees() {}

  static void record(Path members, long pid) {
    try {
      Files.writeString(members, pid + " " + startTicks(pid).orElse("0") + "\n", StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + members, e);
    }
  }

  /** Live members of the group folder and its subfolders, with their descendants. */
  static Set<Long> members(Path dir, String fileName) {
    Set<Long> pids = new TreeSet<>();
    for (Path f : memberFiles(dir, fileName)) {
      for (String line : Cgroup.readLines(f)) {
        String[] w = line.trim().split(" ");
        if (w.length != 2) {
          continue;
        }
        long pid = Long.parseLong(w[0]);
        if (startTicks(pid).filter(w[1]::equals).isPresent()) {
          pids.add(pid);
          ProcessHandle.of(pid).ifPresent(h -> h.descendants().forEach(d -> pids.add(d.pid())));
        }
      }
    }
    return pids;
  }

  /** Stops every member until a pass finds none it had not stopped yet; returns them all. */
  static Set<Long> stopAll(Path dir, String fileName) {
    Set<Long> stopped = new TreeSet<>();
    for (int pass = 0; pass < 100; pass++) {
      Set<Long> now = members(dir, fileName);
      now.removeAll(stopped);
      if (now.isEmpty()) {
        return stopped;
      }
      signal("STOP", now);
      stopped.addAll(now);
    }
    throw new IllegalStateException("processes of " + dir + " keep forking faster than they can be stopped");
  }

  static void signal(String name, Set<Long> pids) {
    if (pids.isEmpty()) {
      return;
    }
    List<String> argv = new ArrayList<>(List.of("kill", "-" + name));
    pids.forEach(p -> argv.add(Long.toString(p)));
    Shell.run(argv); // a member that exited meanwhile makes kill say so; the others got the signal
  }

  /** The process's start time in clock ticks since boot (field 22 of /proc/PID/stat). */
  private static java.util.Optional<String> startTicks(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return java.util.Optional.of(after[19]); // fields from 3 on; 22 is the 20th
    } catch (IOException | RuntimeException gone) {
      return java.util.Optional.empty();
    }
  }

  private static List<Path> memberFiles(Path dir, String fileName) {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.filter(p -> p.getFileName().toString().equals(fileName)).toList();
    } catch (NoSuchFileException gone) {
      return List.of();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

}
