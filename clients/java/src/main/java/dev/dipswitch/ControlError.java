package dev.dipswitch;

import dev.dipswitch.model.ErrorResponseErrorsItem;
import java.util.List;
import java.util.stream.Collectors;

/** An answer the control API refused: its status and its error envelope. */
public class ControlError extends DipswitchException {
    private static final long serialVersionUID = 1L;
    private final int status;
    private final String operation;
    private final List<ErrorResponseErrorsItem> errors;

    public ControlError(int status, String operation, List<ErrorResponseErrorsItem> errors) {
        super(operation + " answered " + status + ": "
                + errors.stream().map(e -> e.code() + ": " + e.detail()).collect(Collectors.joining("; ")));
        this.status = status;
        this.operation = operation;
        this.errors = List.copyOf(errors);
    }

    /** The HTTP status of the refusal. */
    public int status() {
        return status;
    }

    /** The operationId refused. */
    public String operation() {
        return operation;
    }

    /** The errors of the envelope, in order. */
    public List<ErrorResponseErrorsItem> errors() {
        return errors;
    }

    /** The first error's code, or null. */
    public String code() {
        return errors.isEmpty() ? null : errors.get(0).code();
    }
}
