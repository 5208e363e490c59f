package faultbed.faults;

/** Something a fault put on the OS; {@link #heal()} removes it and may be called any number of times. */
@FunctionalInterface
public interface Installed extends AutoCloseable {
  void heal();

  @Override
  default void close() {
    heal();
  }

  static Installed all(java.util.List<Installed> parts) {
    return () -> {
      RuntimeException first = null;
      for (int i = parts.size() - 1; i >= 0; i--) {
        try {
          parts.get(i).heal();
        } catch (RuntimeException e) {
          first = first == null ? e : first;
        }
      }
      if (first != null) {
        throw first;
      }
    };
  }
}
