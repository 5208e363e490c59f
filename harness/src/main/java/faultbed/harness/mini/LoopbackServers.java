package faultbed.harness.mini;

import java.lang.instrument.Instrumentation;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import net.bytebuddy.agent.ByteBuddyAgent;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.matcher.ElementMatchers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hadoop's servers in this JVM on loopback only. Every daemon of the mini cluster binds the address
 * its configuration gives, loopback here, but for one: the ShuffleHandler, which binds its port on
 * every interface with no setting to say otherwise ({@code bootstrap.bind(new InetSocketAddress(port))}
 * in its {@code serviceStart}), so each NodeManager's map output would be served to the machine's
 * network. Netty's {@code AbstractBootstrap.bind(SocketAddress)} is rewritten in this JVM (an agent
 * attached to itself, once) so that a wildcard address a Hadoop class asks for becomes loopback,
 * same port; anything else binds as asked.
 */
final class LoopbackServers {
  private static final Logger LOG = LoggerFactory.getLogger(LoopbackServers.class);
  private static boolean installed;

  private LoopbackServers() {}

  /** Rewrites Netty's bind in this JVM, once; says in one line when it cannot (no attach here). */
  static synchronized void install() {
    if (installed) {
      return;
    }
    installed = true;
    Instrumentation inst;
    try {
      inst = ByteBuddyAgent.install();
    } catch (RuntimeException e) {
      LOG.warn("Hadoop's shuffle ports will listen on every interface: this JVM cannot attach an agent to itself"
          + " ({})", e.getMessage());
      return;
    }
    new AgentBuilder.Default()
        .disableClassFormatChanges()
        .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
        .ignore(ElementMatchers.none())
        .type(ElementMatchers.named("io.netty.bootstrap.AbstractBootstrap"))
        .transform((builder, type, loader, module, domain) -> builder.visit(Advice.to(WildcardToLoopback.class)
            .on(ElementMatchers.named("bind").and(ElementMatchers.takesArguments(SocketAddress.class)))))
        .installOn(inst);
  }

  /**
   * Inlined into Netty's bind: only JDK types and no lambdas, as Netty's class can see nothing else.
   * Binds are rare, so walking the stack for a Hadoop caller costs nothing that matters.
   */
  static final class WildcardToLoopback {
    private WildcardToLoopback() {}

    @Advice.OnMethodEnter
    static void enter(@Advice.Argument(value = 0, readOnly = false) SocketAddress address) {
      if (address instanceof InetSocketAddress && ((InetSocketAddress) address).getAddress() != null
          && ((InetSocketAddress) address).getAddress().isAnyLocalAddress()) {
        boolean hadoop = false;
        for (StackTraceElement f : Thread.currentThread().getStackTrace()) {
          if (f.getClassName().startsWith("org.apache.hadoop.")) {
            hadoop = true;
            break;
          }
        }
        if (hadoop) {
          address = new InetSocketAddress(InetAddress.getLoopbackAddress(), ((InetSocketAddress) address).getPort());
        }
      }
    }
  }
}
