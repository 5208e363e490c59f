package faultbed.harness;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A node whose roles are read off its processes' command lines: YarnChild gets its attempt id as
 * an argument, and the ApplicationMaster's main class is MRAppMaster.
 */
public interface ProcessListedNode extends Node {
  /** The command line of every process of the node, from its process table. */
  default List<String> commandLines() {
    return processTable().stream().map(Proc::command).toList();
  }

  @Override
  default List<String> runningAttempts() {
    Set<String> attempts = new LinkedHashSet<>();
    for (String cmd : commandLines()) {
      for (String word : cmd.split("\\s+")) {
        if (word.startsWith("attempt_")) {
          attempts.add(word);
        }
      }
    }
    return List.copyOf(attempts);
  }

  @Override
  default boolean runsApplicationMaster() {
    return commandLines().stream().anyMatch(c -> c.contains("MRAppMaster"));
  }
}
