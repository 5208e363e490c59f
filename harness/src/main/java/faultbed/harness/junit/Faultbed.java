package faultbed.harness.junit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gives a test class one real cluster for all its tests (started before the first, reset between
 * tests, stopped after the last) and a {@link Recorder}. Test methods ask for them as parameters:
 * {@code Cluster}, the backend's own class ({@code MiniCluster}, {@code NamespaceCluster}),
 * {@code Recorder}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@ExtendWith(FaultbedExtension.class)
public @interface Faultbed {
  int nodes() default 4;

  int nodeMemoryMb() default 1024;

  /** Slots (vcores) a node offers; a node runs at most as many containers as its memory allows. */
  int nodeVcores() default 2;

  int containerMemoryMb() default 512;

  /** Multiplies speculation time constants (see {@link faultbed.harness.ClusterSpec#timeScale()}). */
  double timeScale() default 1.0;
  /**
   * Where network faults are made: "kernel", "toxiproxy" (a container where Docker runs, or the
   * server FAULTBED_TOXIPROXY_URL names). Without a Toxiproxy server, each test is skipped and says why.
   */
  String network() default "kernel";

  /**
   * Where the nodes run: a registered backend's name ({@link faultbed.harness.Backends#names()}),
   * such as "mini" (in-process), "namespace" (a process tree per node; root) or "containers" (a
   * Docker container per node). A host that lacks what the backend needs skips the tests and says why.
   */
  String backend() default "mini";

  /** Disks of each node's own ({@link faultbed.harness.ClusterSpec#withDisks}); 0: none. */
  int disks() default 0;

  /** Each node a wall clock of its own ({@link faultbed.harness.ClusterSpec#withClocks}), which clock faults move. */
  boolean clocks() default false;

  /** Hadoop settings as {@code key=value}. */
  String[] hadoop() default {};
}
