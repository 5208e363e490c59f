package faultbed.schedulers.policies;

import faultbed.schedulers.SpeculationPolicy;
import java.lang.reflect.InvocationTargetException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/** Speculation policies by name ("late"), or a user's own by fully-qualified class name. */
public final class Policies {

  private static final Map<String, Supplier<SpeculationPolicy>> KNOWN = new LinkedHashMap<>();

  static {
    KNOWN.put("hadoop-0.21", Hadoop021Rule::new);
    KNOWN.put("late", Late::new);
    KNOWN.put("late-history", Late::withHistory);
    KNOWN.put("samr", Samr::new);
    KNOWN.put("base", Base::new);
  }

  private Policies() {}

  /** The built-in names, in a stable order. */
  public static Set<String> names() {
    return java.util.Collections.unmodifiableSet(KNOWN.keySet());
  }

  /**
   * A new, not yet configured policy: a built-in name, or the class name of a
   * {@link SpeculationPolicy} with a public no-argument constructor.
   */
  public static SpeculationPolicy create(String nameOrClassName) {
    String key = nameOrClassName == null ? "" : nameOrClassName.trim();
    Supplier<SpeculationPolicy> known = KNOWN.get(key);
    if (known != null) {
      return known.get();
    }
    Class<?> c;
    try {
      ClassLoader loader = Thread.currentThread().getContextClassLoader();
      c = Class.forName(key, true, loader != null ? loader : Policies.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      throw new IllegalArgumentException("unknown speculation policy \"" + key + "\": expected one of "
          + String.join(", ", KNOWN.keySet()) + ", or the class name of a SpeculationPolicy");
    }
    if (!SpeculationPolicy.class.isAssignableFrom(c)) {
      throw new IllegalArgumentException("speculation policy class " + key + " does not implement "
          + SpeculationPolicy.class.getName());
    }
    try {
      return (SpeculationPolicy) c.getConstructor().newInstance();
    } catch (NoSuchMethodException | IllegalAccessException | InstantiationException e) {
      throw new IllegalArgumentException("speculation policy class " + key
          + " needs a public no-argument constructor", e);
    } catch (InvocationTargetException e) {
      throw new IllegalArgumentException("speculation policy class " + key + " failed to construct: "
          + e.getCause(), e.getCause());
    }
  }
}
