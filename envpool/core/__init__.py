"""The flavour-free core: the task registry, the resolved spec of a pool, the Python pool
over the native one, and what they share (spaces, nested observations, seeds, the XLA
calls, the env SDK). Nothing here imports a flavour (envpool/flavours/) or sail-sg
EnvPool's names (envpool/compat/)."""
