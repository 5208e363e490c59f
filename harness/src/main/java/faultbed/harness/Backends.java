package faultbed.harness;

import java.util.List;
import java.util.ServiceLoader;

/**
 * The node backends on the classpath, in the order their registrations list them (the first is
 * the default). A backend registers itself in {@code META-INF/services/faultbed.harness.Backend},
 * so this class names none of them and a backend in a module of its own needs no change here.
 */
public final class Backends {
  private static final List<Backend> ALL = ServiceLoader.load(Backend.class, Backends.class.getClassLoader())
      .stream().map(ServiceLoader.Provider::get).toList();

  private Backends() {}

  public static List<Backend> all() {
    if (ALL.isEmpty()) {
      throw new IllegalStateException("no node backend on the classpath (META-INF/services/" + Backend.class.getName()
          + ")");
    }
    return ALL;
  }

  /** The backend a cluster runs on when nothing names one: the first registered. */
  public static Backend standard() {
    return all().get(0);
  }

  public static List<String> names() {
    return all().stream().map(Backend::name).toList();
  }

  /** The backend called {@code name}; one line naming {@code field} and the choices otherwise. */
  public static Backend named(String name, String field) {
    return all().stream().filter(b -> b.name().equals(name)).findFirst().orElseThrow(() -> new IllegalArgumentException(
        field + ": expected one of " + names().stream().map(n -> "\"" + n + "\"").toList() + ", got \"" + name + "\""));
  }

  /** The backend an {@link Inventory} implies: the one that works on a cluster already up. */
  public static Backend forInventory() {
    return all().stream().filter(Backend::usesExistingCluster).findFirst()
        .orElseThrow(() -> new IllegalStateException("no backend on the classpath works on an existing cluster"));
  }
}
