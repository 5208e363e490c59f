package faultbed.junit;

import java.nio.file.Path;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/** Resolves {@link Suites} parameters for {@link FaultbedSuites} test classes, one folder per test. */
public final class SuitesExtension implements ParameterResolver {
  @Override
  public boolean supportsParameter(ParameterContext p, ExtensionContext e) {
    return p.getParameter().getType() == Suites.class;
  }

  @Override
  public Object resolveParameter(ParameterContext p, ExtensionContext e) {
    Class<?> testClass = e.getRequiredTestClass();
    String out = AnnotationSupport.findAnnotation(testClass, FaultbedSuites.class)
        .map(FaultbedSuites::out).orElse("target/faultbed-suites");
    String test = e.getTestMethod().map(java.lang.reflect.Method::getName).orElse("suite");
    return new Suites(Path.of(out, testClass.getSimpleName(), test), line -> e.publishReportEntry("faultbed", line));
  }
}
