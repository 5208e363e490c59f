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
 * The beans every NodeManager registers as it starts and Hadoop never unregisters: its MXBean
 * ({@code Hadoop:service=NodeManager,name=NodeManager}, made unique with a number in a JVM of many),
 * and the metrics sources {@code NodeManagerMetrics}, {@code ShuffleMetrics} and its web server's
 * {@code HttpServer2} (which holds the whole stopped web app). The platform MBean server and the
 * metrics system then hold each NodeManager, its applications and containers, for as long as the
 * JVM runs. The mini cluster's NodeManagers all live in the harness's JVM, and a crashed node is
 * replaced by a fresh one: each replaced or stopped NodeManager's beans are unregistered here, found
 * as the beans its start added.
 */
final class NodeManagerBeans {
  private static final Pattern NAME = Pattern.compile("NodeManager(?:-(\\d+))?");
  /** What one NodeManager's start registers and its stop leaves (RPC servers unregister their own). */
  private static final Pattern OWN = Pattern.compile("(?:NodeManager|NodeManagerMetrics|ShuffleMetrics|HttpServer2)"
      + "(?:-\\d+)?");

  private NodeManagerBeans() {}

  /** The NodeManager MXBeans registered now. */
  static Set<ObjectName> present() {
    return named(NAME);
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

  /** Every NodeManager bean registered now, its own MXBean and its metrics sources. */
  static Set<ObjectName> all() {
    return named(OWN);
  }

  private static Set<ObjectName> named(Pattern name) {
    try {
      return ManagementFactory.getPlatformMBeanServer().queryNames(new ObjectName("Hadoop:service=NodeManager,*"), null)
          .stream().filter(n -> n.getKeyProperty("name") != null && name.matcher(n.getKeyProperty("name")).matches())
          .collect(java.util.stream.Collectors.toSet());
    } catch (MalformedObjectNameException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Unregisters {@code beans}: a metrics source through the metrics system (which then lets go of
   * it and its bean), anything else from the MBean server.
   */
  static void unregisterAll(Set<ObjectName> beans) {
    if (beans == null) {
      return;
    }
    for (ObjectName bean : beans) {
      org.apache.hadoop.metrics2.lib.DefaultMetricsSystem.instance().unregisterSource(bean.getKeyProperty("name"));
      unregister(bean);
    }
  }

  private static long number(ObjectName n) {
    Matcher m = NAME.matcher(n.getKeyProperty("name"));
    return m.matches() && m.group(1) != null ? Long.parseLong(m.group(1)) : 0;
  }
}
