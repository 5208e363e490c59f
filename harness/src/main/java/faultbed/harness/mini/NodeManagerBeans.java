package faultbed.harness.mini;

import java.lang.management.ManagementFactory;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.apache.hadoop.metrics2.util.MBeans;

/**
 * The MXBean every NodeManager registers as it is initialised ({@code Hadoop:service=NodeManager,
 * name=NodeManager}, made unique with a number in a JVM of many) and Hadoop never unregisters: the
 * platform MBean server then holds the whole NodeManager, its applications and containers, for as
 * long as the JVM runs. The mini cluster's NodeManagers all live in the harness's JVM, and a crashed
 * node is replaced by a fresh one: each replaced or stopped NodeManager's bean is unregistered here,
 * found as the bean its initialisation added.
 */
final class NodeManagerBeans {
  private static final Pattern NAME = Pattern.compile("NodeManager(?:-(\\d+))?");

  private NodeManagerBeans() {}

  /** The NodeManager beans registered now. */
  static Set<ObjectName> present() {
    try {
      return ManagementFactory.getPlatformMBeanServer().queryNames(new ObjectName("Hadoop:service=NodeManager,*"), null)
          .stream().filter(n -> n.getKeyProperty("name") != null && NAME.matcher(n.getKeyProperty("name")).matches())
          .collect(java.util.stream.Collectors.toSet());
    } catch (MalformedObjectNameException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The beans registered since {@code before}, in the order they were registered: within one run of
   * registrations Hadoop numbers a name's copies upwards ({@code NodeManager}, {@code -1}, ...).
   */
  static List<ObjectName> since(Set<ObjectName> before) {
    return present().stream().filter(n -> !before.contains(n)).sorted(Comparator.comparingLong(NodeManagerBeans::number))
        .toList();
  }

  static void unregister(ObjectName bean) {
    if (bean != null && ManagementFactory.getPlatformMBeanServer().isRegistered(bean)) {
      MBeans.unregister(bean);
    }
  }

  private static long number(ObjectName n) {
    Matcher m = NAME.matcher(n.getKeyProperty("name"));
    return m.matches() && m.group(1) != null ? Long.parseLong(m.group(1)) : 0;
  }
}
