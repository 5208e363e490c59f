package faultbed.junit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Lets a test class's tests run scenario files as suites, as {@code faultbed run} does, and gate
 * them: test methods ask for a {@link Suites} parameter. Each suite's records go to a folder of its
 * own under {@link #out()}, named after the test class, the test and the scenario.
 *
 * <pre>
 * &#64;FaultbedSuites
 * class MyPolicyTest {
 *   &#64;Test
 *   void noSlowerThanWhenItWasAccepted(Suites suites) {
 *     suites.run(Path.of("src/test/faultbed/stragglers.json"))
 *         .assertNoRegressionAgainst(Path.of("src/test/faultbed/stragglers.baseline.json"));
 *   }
 * }
 * </pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@ExtendWith(SuitesExtension.class)
public @interface FaultbedSuites {
  /** Where suites' records go, relative to the working directory (Maven's: the module's folder). */
  String out() default "target/faultbed-suites";
}
