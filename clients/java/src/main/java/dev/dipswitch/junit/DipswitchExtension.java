package dev.dipswitch.junit;

import dev.dipswitch.Dipswitch;
import dev.dipswitch.Sandbox;
import dev.dipswitch.Settings;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The JUnit 5 extension behind {@link DipswitchTest} (or registered with settings in code): resolves
 * {@code Dipswitch} and {@code Sandbox} parameters. The server is kept in the root context's store: made
 * once for the run by whichever test asks first, gated and stopped when the run ends. A sandbox is kept in
 * its test's (or class's) store and removed when that ends.
 */
public class DipswitchExtension implements ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(DipswitchExtension.class);
    private final Settings settings;

    /** The settings of the environment. */
    public DipswitchExtension() {
        this(Settings.of());
    }

    private DipswitchExtension(Settings settings) {
        this.settings = settings;
    }

    /** An extension with settings in code, each one not given read from the environment. */
    public static DipswitchExtension with(Settings settings) {
        return new DipswitchExtension(settings);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == Dipswitch.class || type == Sandbox.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Dipswitch server = server(context);
        if (parameter.getParameter().getType() == Dipswitch.class) return server;
        ExtensionContext owner = context.getTestMethod().isPresent() && scope(context) == DipswitchTest.Scope.TEST
                ? context
                : classContext(context);
        return owner.getStore(NAMESPACE)
                .getOrComputeIfAbsent("sandbox", k -> new KeptSandbox(server.sandbox(nameOf(owner))), KeptSandbox.class)
                .sandbox();
    }

    /** The run's server: started (or reached) once, whichever test asks first. */
    private Dipswitch server(ExtensionContext context) {
        return context.getRoot().getStore(NAMESPACE)
                .getOrComputeIfAbsent("server", k -> new RunServer(settings.resolve()), RunServer.class)
                .server();
    }

    private static DipswitchTest.Scope scope(ExtensionContext context) {
        return context.getTestClass().map(c -> c.getAnnotation(DipswitchTest.class)).map(DipswitchTest::sandbox)
                .orElse(DipswitchTest.Scope.TEST);
    }

    private static ExtensionContext classContext(ExtensionContext context) {
        ExtensionContext at = context;
        while (at.getTestMethod().isPresent() && at.getParent().isPresent()) at = at.getParent().get();
        return at;
    }

    /** A sandbox's name: its test's class and method (the server's bound is 255 characters). */
    private static String nameOf(ExtensionContext context) {
        String name = context.getTestClass().map(Class::getSimpleName).orElse("junit")
                + context.getTestMethod().map(m -> "." + m.getName()).orElse("");
        return name.length() > 255 ? name.substring(0, 255) : name;
    }

    /** A sandbox kept in a context's store, removed when the context ends. */
    record KeptSandbox(Sandbox sandbox) implements ExtensionContext.Store.CloseableResource {
        @Override
        public void close() {
            sandbox.remove();
        }
    }
}
