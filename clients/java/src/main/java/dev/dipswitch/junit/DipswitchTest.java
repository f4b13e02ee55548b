package dev.dipswitch.junit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A test class against dipswitch: one server for the whole run, shared by every class (also under JUnit's
 * parallel execution), from the settings of the environment (docs/clients.md); a {@code Sandbox} parameter is
 * a sandbox of the test's own, removed after it (or the class's, with {@code sandbox = Scope.CLASS}); a
 * {@code Dipswitch} parameter is the server, with the control API's authority. With
 * {@code DIPSWITCH_FAIL_UNDER} set, the run's coverage gates it once every test ran. Settings in code:
 * {@code @RegisterExtension static DipswitchExtension dipswitch = DipswitchExtension.with(Settings.of()…)}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@ExtendWith(DipswitchExtension.class)
public @interface DipswitchTest {
    /** Whose a {@code Sandbox} parameter is: the test's own (the default), or its class's. */
    Scope sandbox() default Scope.TEST;

    /** Whose a sandbox is. */
    enum Scope {
        /** One per test, removed after it. */
        TEST,
        /** One per class, shared by its tests, removed after the last. */
        CLASS
    }
}
