package team;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Our webhook receiver for a test: every body it was sent, answered 200. */
final class Receiver implements AutoCloseable {
    final List<String> bodies = new CopyOnWriteArrayList<>();
    private final HttpServer server;

    Receiver() throws IOException {
        // all addresses: a server in a container reaches it at its receiver host, which may not be 127.0.0.1
        server = HttpServer.create(new InetSocketAddress(0), 0);
        server.createContext("/", exchange -> {
            bodies.add(new String(exchange.getRequestBody().readAllBytes()));
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
    }

    int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
