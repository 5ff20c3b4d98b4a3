"""Runs rl_games' Runner on a YAML config with envpool registered.

    python examples/rl_games/train.py --file examples/rl_games/ppo_cartpole.yaml
"""

from __future__ import annotations

import argparse

import yaml
from rl_games.torch_runner import Runner

from envpool.integrations.rl_games import register_rl_games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--file", required=True)
    parser.add_argument("--train-dir", default="runs")
    parser.add_argument("--max-epochs", type=int, default=0,
                        help="override the config's max_epochs (0: keep it)")
    args = parser.parse_args()
    register_rl_games()
    with open(args.file) as f:
        config = yaml.safe_load(f)
    config["params"]["config"]["train_dir"] = args.train_dir
    if args.max_epochs:
        config["params"]["config"]["max_epochs"] = args.max_epochs
    runner = Runner()
    runner.load(config)
    runner.run({"train": True, "play": False})


if __name__ == "__main__":
    main()
