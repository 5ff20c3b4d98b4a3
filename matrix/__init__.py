"""The nightly integration matrix: framework x family cells, envpool against the reference stack.

    python -m matrix run                # every cell at its matrix budget; writes docs/matrix.md
    python -m matrix run --cells sb3/classic cleanrl/mujoco
    python -m matrix run --budget smoke # seconds per cell: checks the machinery, not learning
    python -m matrix report             # rewrite docs/matrix.md from the stored results
    python -m matrix list               # the cells, their budgets, and the pairs without one

Each cell trains one algorithm of one framework on one task, with the same seeds and the
same hyperparameters on two stacks: ``reference`` (the official env package in the
framework's own vector env) and ``envpool`` (this package through the framework's adapter).
``matrix.cells`` defines the cells, ``matrix.run`` runs them and judges them,
``matrix.report`` writes the table; one module per framework holds its trainers.
"""
