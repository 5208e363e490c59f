package faultbed.harness.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * One map attempt that runs slower than its siblings, by a profile over its own progress: from
 * progress {@code from} on, each step of its work takes {@code factor} times as long. Hadoop's
 * {@code TestSpeculativeExecOnCluster} shapes its cases this way (a task that slows by 1.2 after
 * 40 %, one that stalls, one that slows more and more), so the framework sees the progress rate,
 * not only the duration, change.
 *
 * @param map     the map's index (its task number)
 * @param attempt the attempt number slowed (0: the first); other attempts of the map run normally
 * @param profile steps in increasing {@code from}; before the first, the attempt runs normally
 */
public record Slowdown(int map, int attempt, List<Step> profile) {

  /** From progress {@code from} (0 to 1) on, work goes {@code factor} times slower. */
  public record Step(double from, double factor) {
    public Step {
      if (!(from >= 0 && from < 1)) {
        throw new IllegalArgumentException("from: expected a progress in [0, 1), got " + from);
      }
      if (!(factor >= 1 && factor <= 1_000_000)) {
        throw new IllegalArgumentException("factor: expected a slow-down factor in [1, 1000000], got " + factor);
      }
    }
  }

  private static final Pattern ENTRY = Pattern.compile("m(\\d+)a(\\d+):(.+)");
  private static final Pattern STEP = Pattern.compile("([0-9.]+)x([0-9.]+)");

  public Slowdown {
    if (map < 0) {
      throw new IllegalArgumentException("map: expected a map index of 0 or more, got " + map);
    }
    if (attempt < 0) {
      throw new IllegalArgumentException("attempt: expected an attempt number of 0 or more, got " + attempt);
    }
    if (profile == null || profile.isEmpty()) {
      throw new IllegalArgumentException("profile: expected at least one {\"from\": progress, \"factor\": x}");
    }
    profile = List.copyOf(profile);
    for (int i = 1; i < profile.size(); i++) {
      if (profile.get(i).from() <= profile.get(i - 1).from()) {
        throw new IllegalArgumentException("profile[" + i + "].from: expected more than " + profile.get(i - 1).from()
            + " (steps in increasing progress), got " + profile.get(i).from());
      }
    }
  }

  /** The factor in force at {@code progress}: the last step at or before it, else 1. */
  public double factorAt(double progress) {
    double f = 1;
    for (Step s : profile) {
      if (s.from() > progress) {
        break;
      }
      f = s.factor();
    }
    return f;
  }

  /** {@code m0a0:0.4x1.2,0.6x2}: how the job configuration and the record carry it. */
  public String encode() {
    return "m" + map + "a" + attempt + ":" + profile.stream()
        .map(s -> number(s.from()) + "x" + number(s.factor())).collect(Collectors.joining(","));
  }

  public static String encodeAll(List<Slowdown> slowdowns) {
    return slowdowns.stream().map(Slowdown::encode).collect(Collectors.joining(";"));
  }

  /** The inverse of {@link #encodeAll}; an empty or null text is none. */
  public static List<Slowdown> decodeAll(String text) {
    List<Slowdown> out = new ArrayList<>();
    if (text == null || text.isBlank()) {
      return out;
    }
    for (String entry : text.split(";")) {
      Matcher m = ENTRY.matcher(entry.trim());
      if (!m.matches()) {
        throw new IllegalArgumentException("slowdown: expected m<map>a<attempt>:<from>x<factor>,..., got " + entry);
      }
      List<Step> steps = new ArrayList<>();
      for (String s : m.group(3).split(",")) {
        Matcher sm = STEP.matcher(s.trim());
        if (!sm.matches()) {
          throw new IllegalArgumentException("slowdown step: expected <from>x<factor>, got " + s);
        }
        steps.add(new Step(Double.parseDouble(sm.group(1)), Double.parseDouble(sm.group(2))));
      }
      out.add(new Slowdown(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), steps));
    }
    return out;
  }

  /** The profile of map {@code map}'s attempt {@code attempt}, or null when it runs normally. */
  public static Slowdown of(List<Slowdown> slowdowns, int map, int attempt) {
    return slowdowns.stream().filter(s -> s.map() == map && s.attempt() == attempt).findFirst().orElse(null);
  }

  private static String number(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : String.format(Locale.ROOT, "%s", d);
  }
}
