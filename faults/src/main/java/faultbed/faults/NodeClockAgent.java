package faultbed.faults;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * The Java agent that gives a JVM its node's clock ({@link NodeClock}): every call of
 * {@code System.currentTimeMillis()} in the classes it loads, and in the JDK classes that read the
 * time of day for others ({@code java.util.Date}, {@code java.util.Timer}'s thread), becomes a call
 * of {@link NodeTime#currentTimeMillis()}. {@code System.nanoTime()} is left alone: a stepped
 * clock does not move the monotonic one. Its argument is the node's clock file.
 */
public final class NodeClockAgent {
  public static final String MARK = "FAULTBED-NODE-CLOCK ";
  private static final byte[] NAME = "currentTimeMillis".getBytes(StandardCharsets.US_ASCII);
  private static final String TIME = NodeTime.class.getName().replace('.', '/');
  /** JDK classes loaded before the agent that read the time of day on others' behalf. */
  private static final List<String> JDK = List.of("java.util.Date", "java.util.TimerThread");

  private NodeClockAgent() {}

  public static void premain(String args, Instrumentation inst) throws Exception {
    NodeTime.follow(Path.of(args.trim()));
    // java.base reads the bootstrap loader's unnamed module, where NodeTime was loaded from the agent's jar
    inst.redefineModule(Object.class.getModule(), Set.of(NodeTime.class.getModule()), Map.of(), Map.of(), Set.of(),
        Map.of());
    inst.addTransformer(new Rewrite(), true);
    List<Class<?>> loaded = new ArrayList<>();
    for (String name : JDK) {
      Class<?> c = Class.forName(name, false, null);
      if (inst.isModifiableClass(c)) {
        loaded.add(c);
      }
    }
    inst.retransformClasses(loaded.toArray(Class<?>[]::new));
    System.err.println(MARK + "following " + args.trim());
  }

  /** Rewrites the calls in any class that names currentTimeMillis, but the JVM's own core and the agent's. */
  private static final class Rewrite implements ClassFileTransformer {
    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> redefined,
        ProtectionDomain domain, byte[] bytes) {
      if (className == null || !mentions(bytes) || skipped(className)) {
        return null;
      }
      try {
        ClassReader reader = new ClassReader(bytes);
        ClassWriter writer = new ClassWriter(reader, 0);
        boolean[] changed = {false};
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
          @Override
          public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] exceptions) {
            return new MethodVisitor(Opcodes.ASM9, super.visitMethod(access, name, desc, sig, exceptions)) {
              @Override
              public void visitMethodInsn(int op, String owner, String method, String mdesc, boolean itf) {
                if (op == Opcodes.INVOKESTATIC && owner.equals("java/lang/System") && method.equals("currentTimeMillis")
                    && mdesc.equals("()J")) {
                  changed[0] = true;
                  super.visitMethodInsn(op, TIME, method, mdesc, false);
                } else {
                  super.visitMethodInsn(op, owner, method, mdesc, itf);
                }
              }
            };
          }
        }, 0);
        return changed[0] ? writer.toByteArray() : null;
      } catch (RuntimeException e) {
        System.err.println(MARK + "left " + className + " on the machine's clock: " + e);
        return null;
      }
    }

    private static boolean skipped(String className) {
      return (className.startsWith("java/") && !JDK.contains(className.replace('/', '.')))
          || className.startsWith("jdk/") || className.startsWith("sun/") || className.startsWith("com/sun/")
          || className.startsWith(TIME) || className.startsWith("net/bytebuddy/");
    }

    /** Whether the class file holds the name at all: most do not, and are passed by untouched. */
    private static boolean mentions(byte[] bytes) {
      outer:
      for (int i = 0; i <= bytes.length - NAME.length; i++) {
        for (int j = 0; j < NAME.length; j++) {
          if (bytes[i + j] != NAME[j]) {
            continue outer;
          }
        }
        return true;
      }
      return false;
    }
  }
}
