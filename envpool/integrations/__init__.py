"""Adapters that put an envpool pool under a training framework.

Each submodule imports its framework, so import only the one you use::

    from envpool.integrations.sb3 import make_vec_env            # Stable-Baselines3
    from envpool.integrations.tianshou import make_tianshou_env   # Tianshou 2.x
    from envpool.integrations.acme import make_dm_env             # dm_env / Acme
    from envpool.integrations.cleanrl import RecordEpisodeStatistics
    # python -m envpool.integrations.cleanrl_run SCRIPT: CleanRL's EnvPool-era JAX scripts
    from envpool.integrations.rl_games import register_rl_games   # rl_games
    from envpool.integrations.rllib import EnvpoolCallback        # Ray RLlib env runners
    from envpool.integrations.curves import compare_curves        # reward curves
"""
