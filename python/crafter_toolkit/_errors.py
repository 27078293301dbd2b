"""The errors of the package, which every other module may raise: this one
imports none of them."""


class CrafterStepError(RuntimeError):
    """crafter-step refused the options, stopped, or sent what this client
    does not understand; the message carries what crafter-step said."""


class ClosedEnvError(CrafterStepError):
    """An environment used after its close(): every class of the package
    raises it, with this message, from reset(), step() and render()."""

    def __init__(self, message="this environment was closed: close() ends its crafter-step "
                               "for good, make a new environment to play on"):
        super().__init__(message)
