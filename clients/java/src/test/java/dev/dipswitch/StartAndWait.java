package dev.dipswitch;

/**
 * A JVM that starts a server as the settings say, prints its URL and waits to be killed: the suite's check
 * that a {@code kill -9} of the JVM leaves no server (or container) behind.
 */
public final class StartAndWait {
    private StartAndWait() {}

    public static void main(String[] args) throws InterruptedException {
        Dipswitch server = Dipswitch.start();
        System.out.println("started " + server.url());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
