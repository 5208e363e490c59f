package faultbed.faults;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs one OS command (iptables, tc) and returns its output, or fails with what it printed. */
final class Shell {
  private Shell() {}

  record Result(int code, String out) {
    boolean ok() {
      return code == 0;
    }
  }

  static Result run(List<String> command) {
    try {
      List<String> argv = new java.util.ArrayList<>(command);
      argv.set(0, resolve(command.get(0)));
      Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException("timed out: " + String.join(" ", command));
      }
      return new Result(p.exitValue(), out.strip());
    } catch (IOException e) {
      throw new PreconditionFailed("cannot run " + command.get(0) + " (" + e.getMessage() + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted: " + String.join(" ", command), e);
    }
  }

  static String check(List<String> command) {
    Result r = run(command);
    if (!r.ok()) {
      throw new IllegalStateException(String.join(" ", command) + " failed (" + r.code() + "): " + r.out());
    }
    return r.out();
  }

  static boolean exists(String program) {
    return !resolve(program).equals(program) || program.contains("/");
  }

  /** The program's full path: sbin folders are not on a user's PATH, yet iptables and tc live there. */
  private static String resolve(String program) {
    if (program.contains("/")) {
      return program;
    }
    for (String dir : List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin")) {
      if (java.nio.file.Files.isExecutable(java.nio.file.Path.of(dir, program))) {
        return dir + "/" + program;
      }
    }
    return program;
  }
}
