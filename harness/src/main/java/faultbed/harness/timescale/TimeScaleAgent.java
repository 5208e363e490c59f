package faultbed.harness.timescale;

import static net.bytebuddy.matcher.ElementMatchers.named;

import java.lang.instrument.Instrumentation;
import java.util.List;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.implementation.Implementation;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.pool.TypePool;

/**
 * A Java agent for task and ApplicationMaster JVMs that multiplies the timers Hadoop hard-codes
 * (and configuration cannot reach) by the run's time scale. Each is a literal constant in one
 * method; the agent rewrites that constant as the class loads. Its argument is the scale factor.
 *
 * <p>Every rewrite is reported on the JVM's stderr as a line starting with {@link #MARK}, and so is
 * a constant that was not found (another Hadoop version), so a run never silently runs unscaled.
 * The shuffle penalty handed to each back-off is logged too, which lets a test check the back-off.
 */
public final class TimeScaleAgent {
  public static final String MARK = "FAULTBED-TIMESCALE ";

  /** A constant in one method of one class, and what it is. */
  public record HardCoded(String className, String method, Number value, String what) {}

  public static final List<HardCoded> REWRITES = List.of(
      new HardCoded("org.apache.hadoop.mapreduce.task.reduce.ShuffleSchedulerImpl", "copyFailed", 10000.0d,
          "shuffle back-off per failed fetch: 10 s x 1.3^failures (INITIAL_PENALTY)"),
      new HardCoded("org.apache.hadoop.mapreduce.task.reduce.Fetcher", "connect", 60000,
          "shuffle connect retry unit (UNIT_CONNECT_TIMEOUT, 60 s)"),
      new HardCoded("org.apache.hadoop.mapreduce.v2.app.speculate.DefaultSpeculator$TaskAttemptHistoryStatistics",
          "notHeartbeatedInAWhile", 9000L, "speculator's no-heartbeat rule (MAX_WAITTING_TIME_FOR_HEARTBEAT, 9 s)"));

  private TimeScaleAgent() {}

  public static void premain(String args, Instrumentation inst) {
    double scale = Double.parseDouble(args.trim());
    AgentBuilder agent = new AgentBuilder.Default().disableClassFormatChanges();
    for (HardCoded h : REWRITES) {
      agent = agent.type(named(h.className())).transform((builder, type, loader, module, domain) ->
          builder.visit(new AsmVisitorWrapper.ForDeclaredMethods().method(named(h.method()), new Rescale(h, scale))));
    }
    agent = agent.type(named("org.apache.hadoop.mapreduce.task.reduce.ShuffleSchedulerImpl"))
        .transform((builder, type, loader, module, domain) ->
            builder.visit(Advice.to(PenaltyLog.class).on(named("penalize"))));
    agent.installOn(inst);
    System.err.println(MARK + "installed, scale " + scale);
  }

  /** Replaces one literal with itself times the scale, and says whether it found it. */
  private record Rescale(HardCoded target, double scale) implements AsmVisitorWrapper.ForDeclaredMethods.MethodVisitorWrapper {
    @Override
    public MethodVisitor wrap(TypeDescription type, MethodDescription method, MethodVisitor visitor,
        Implementation.Context context, TypePool pool, int writerFlags, int readerFlags) {
      return new MethodVisitor(Opcodes.ASM9, visitor) {
        private int found;

        @Override
        public void visitLdcInsn(Object value) {
          if (value.equals(target.value())) {
            found++;
            super.visitLdcInsn(scaled(value));
          } else {
            super.visitLdcInsn(value);
          }
        }

        @Override
        public void visitEnd() {
          System.err.println(MARK + (found > 0
              ? "rescaled " + target.what() + " in " + type.getSimpleName() + "." + target.method() + ": "
                  + target.value() + " -> " + scaled(target.value())
              : "NOT FOUND " + target.value() + " in " + type.getName() + "." + target.method()
                  + "; " + target.what() + " runs unscaled"));
          super.visitEnd();
        }

        private Object scaled(Object value) {
          if (value instanceof Double d) {
            return d * scale;
          }
          if (value instanceof Long l) {
            return Math.round(l * scale);
          }
          return (int) Math.round(((Integer) value) * scale);
        }
      };
    }
  }

  /** Inlined into ShuffleSchedulerImpl.penalize(MapHost, long): one line per back-off. */
  static final class PenaltyLog {
    @Advice.OnMethodEnter
    static void enter(@Advice.Argument(0) Object host, @Advice.Argument(1) long delay) {
      System.err.println("FAULTBED-TIMESCALE penalize " + host + " " + delay + " ms at " + System.currentTimeMillis());
    }
  }
}
