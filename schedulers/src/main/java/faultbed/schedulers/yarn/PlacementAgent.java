package faultbed.schedulers.yarn;

import static net.bytebuddy.matcher.ElementMatchers.named;

import faultbed.schedulers.placement.PlacementPolicy;
import java.lang.instrument.Instrumentation;
import java.util.List;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;

/**
 * A Java agent for the MapReduce ApplicationMaster that puts a {@link PlacementPolicy} where the AM
 * matches map containers to maps. Hadoop's {@code RMContainerAllocator} asks for containers at the
 * splits' hosts and, in one method ({@code ScheduledRequests.assignMapsWithLocality}), gives each
 * container it gets a node-local map, else a rack-local one, else the oldest; nothing configures
 * that choice, and a reduce container goes to the oldest reduce wherever it is
 * ({@code assignToReduce}). The agent advises both: with a network-aware policy,
 * {@link AllocatorPlacement} makes the maps' choice in place of Hadoop's, and refuses a reduce
 * container off the reduces' preferred node; everything around them stays Hadoop's (requests,
 * failed maps first, blacklisting, releasing what is not assigned).
 *
 * <p>Its argument is "policy,probePort". Every line it writes starts with {@link #MARK}.
 */
public final class PlacementAgent {
  public static final String MARK = "faultbed-placement";
  static final String SCHEDULED_REQUESTS = "org.apache.hadoop.mapreduce.v2.app.rm.RMContainerAllocator$ScheduledRequests";

  private PlacementAgent() {}

  public static void premain(String args, Instrumentation inst) {
    String[] a = (args == null ? "" : args).split(",");
    PlacementPolicy policy = PlacementPolicy.named(a[0].trim());
    int port = Integer.parseInt(a[1].trim());
    String ownHost = System.getenv().getOrDefault("NM_HOST", "localhost");
    AllocatorPlacement.install(policy, BandwidthWatch.start(ownHost, port));
    new AgentBuilder.Default().disableClassFormatChanges()
        .type(named(SCHEDULED_REQUESTS))
        .transform((builder, type, loader, module, domain) ->
            builder.visit(Advice.to(Assign.class).on(named("assignMapsWithLocality")))
                .visit(Advice.to(AssignReduce.class).on(named("assignToReduce"))))
        .installOn(inst);
    System.err.println(MARK + " installed: " + policy + ", bandwidth from the probes on port " + port);
  }

  /** Inlined into Hadoop's method: true skips its body. */
  static final class Assign {
    private Assign() {}

    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
    static boolean enter(@Advice.This Object scheduledRequests, @Advice.Argument(0) List<?> containers) {
      return AllocatorPlacement.assignMaps(scheduledRequests, containers);
    }
  }

  /** Inlined into Hadoop's assignToReduce: true skips its body, which then assigns nothing. */
  static final class AssignReduce {
    private AssignReduce() {}

    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
    static boolean enter(@Advice.This Object scheduledRequests, @Advice.Argument(0) Object container) {
      return AllocatorPlacement.refuseReduce(scheduledRequests, container);
    }
  }
}
