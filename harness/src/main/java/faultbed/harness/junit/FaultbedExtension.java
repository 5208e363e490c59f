package faultbed.harness.junit;

import faultbed.harness.Cluster;
import faultbed.harness.ClusterSpec;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The lifecycle behind {@link Faultbed}: one cluster per annotated test class (its subclasses and
 * {@code @Nested} classes share it), reset before each test. A host that cannot run the cluster
 * skips the tests with the reason, as a missing Toxiproxy server does.
 */
public final class FaultbedExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback,
    ParameterResolver {
  private static final Namespace NS = Namespace.create(FaultbedExtension.class);

  @Override
  public void beforeAll(ExtensionContext context) {
    Class<?> testClass = context.getRequiredTestClass();
    // on the class, a superclass, or a composed annotation of the user's own
    Faultbed cfg = AnnotationSupport.findAnnotation(testClass, Faultbed.class).orElse(null);
    if (cfg == null || context.getStore(NS).get("cluster") != null || context.getStore(NS).get("skip") != null) {
      return; // a @Nested class: its tests use the cluster of the class it is nested in (stores inherit)
    }
    ClusterSpec spec = ClusterSpec.nodes(cfg.nodes()).withNodeMemoryMb(cfg.nodeMemoryMb()).withNodeVcores(cfg.nodeVcores())
        .withContainerMemoryMb(cfg.containerMemoryMb()).withTimeScale(cfg.timeScale())
        .withDisks(cfg.disks() == 0 ? null : ClusterSpec.Disks.of(cfg.disks())).withClocks(cfg.clocks());
    for (String kv : cfg.hadoop()) {
      int eq = kv.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("@Faultbed hadoop: expected key=value, got '" + kv + "'");
      }
      spec = spec.withHadoop(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
    }
    spec = spec.withNetwork(new faultbed.harness.NetworkBackend(cfg.network(), null))
        .withBackend(faultbed.harness.Backends.named(cfg.backend(), "@Faultbed backend"));
    var store = context.getStore(NS);
    Cluster cluster;
    try {
      cluster = faultbed.harness.Clusters.start(spec); // checks what the backend needs of this host first
    } catch (faultbed.faults.PreconditionFailed missing) {
      store.put("skip", "cluster not started here: " + missing.getMessage()); // reported test by test
      return;
    }
    store.put("cluster", cluster);
    store.put("recorder", new Recorder(Path.of("target", "faultbed-records", testClass.getSimpleName())));
    store.put("runs", new int[] {0});
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    var store = context.getStore(NS); // finds what the class, or the class it is nested in, put there
    String skip = store.get("skip", String.class);
    org.junit.jupiter.api.Assumptions.assumeTrue(skip == null, skip);
    int[] runs = store.get("runs", int[].class);
    if (runs != null && runs[0]++ > 0) {
      store.get("cluster", Cluster.class).reset();
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    var store = context.getStore(NS);
    Recorder recorder = store.remove("recorder", Recorder.class);
    Cluster cluster = store.remove("cluster", Cluster.class);
    try {
      if (recorder != null && cluster != null) {
        recorder.writeSummary();
      }
    } finally {
      if (cluster != null) {
        cluster.close();
      }
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext p, ExtensionContext e) {
    Class<?> t = p.getParameter().getType();
    return t == Recorder.class || Cluster.class.isAssignableFrom(t);
  }

  @Override
  public Object resolveParameter(ParameterContext p, ExtensionContext e) {
    var store = e.getStore(NS);
    Class<?> t = p.getParameter().getType();
    Object value = t == Recorder.class ? store.get("recorder") : store.get("cluster");
    if (value == null) {
      throw new ParameterResolutionException("no faultbed " + t.getSimpleName() + " for " + e.getDisplayName());
    }
    if (!t.isInstance(value)) {
      throw new ParameterResolutionException(e.getDisplayName() + " asks for a " + t.getSimpleName()
          + " but @Faultbed started a " + value.getClass().getSimpleName() + "; ask for a Cluster");
    }
    return value;
  }
}
