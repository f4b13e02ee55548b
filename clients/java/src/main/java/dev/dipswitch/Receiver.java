package dev.dipswitch;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A webhook receiver for a test that only wants to see what was sent: the JDK's HTTP server on a free port of every
 * address (a server in a container reaches it at its receiver host), answering every request {@code status} (200).
 * {@code try (Receiver receiver = new Receiver()) { … receiver.url(box.receiverHost(), "/sms") … }}.
 */
public final class Receiver implements AutoCloseable {
    /** One request as it came: its method, path, headers (lowercase names) and raw body. */
    public record Request(String method, String path, Map<String, String> headers, byte[] body) {
        /** The body as text. */
        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private final HttpServer server;
    private final List<Request> received = new ArrayList<>();

    public Receiver() throws IOException {
        this(200);
    }

    public Receiver(int status) throws IOException {
        server = HttpServer.create(new InetSocketAddress(0), 0);
        server.createContext("/", exchange -> {
            Map<String, String> headers = new TreeMap<>();
            exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(), String.join(", ", v)));
            Request request = new Request(exchange.getRequestMethod(), exchange.getRequestURI().toString(), headers,
                    exchange.getRequestBody().readAllBytes());
            synchronized (received) {
                received.add(request);
                received.notifyAll();
            }
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        server.start();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** The URL of {@code path} on this receiver as the server reaches it ({@code host}: the client's receiverHost). */
    public String url(String host, String path) {
        return "http://" + host + ":" + port() + path;
    }

    /** Every request so far. */
    public List<Request> received() {
        synchronized (received) {
            return List.copyOf(received);
        }
    }

    /** The first {@code count} requests, waiting up to {@code timeout} for them. */
    public List<Request> waitFor(int count, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (received) {
            while (received.size() < count) {
                long left = deadline - System.nanoTime();
                if (left <= 0)
                    throw new DipswitchException("the receiver got " + received.size() + " of " + count + " requests within " + timeout);
                received.wait(Math.max(1, left / 1_000_000));
            }
            return List.copyOf(received.subList(0, count));
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
