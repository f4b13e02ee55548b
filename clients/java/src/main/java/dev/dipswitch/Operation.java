package dev.dipswitch;

/** One operation of the control API: its operationId, method and path template (the generated {@link Operations}). */
public record Operation(String id, String method, String path) {}
