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


class ReadOnlyError(AttributeError, TypeError):
    """A write to crafter's insides as the Env shows them (env._world,
    env._player, their attributes, inventories and cells): a read-only view
    of the engine's state, which only step() changes.  An AttributeError
    (for attributes) and a TypeError (for items), as Python raises for
    what cannot be set."""
