"""The site's one generated plot: every exploiter probe's win rate against its learner steps
(``python -m granujas_env.docs --plots``; needs matplotlib, the ``[train]`` extra).

The PNG carries a digest of the data it shows, so ``--check`` catches a plot older than the
result files without drawing it again.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only, no display

import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)

from .docs_site import CURVES_PNG, curve_series, curves_digest  # noqa: E402


def write_curves_plot(folder: Path) -> Path:
    """Draw the exploiter curves of the result files in ``folder`` into ``folder/exploit_curves.png``:
    a panel per table size, each with its own held-out deals and target line."""
    series = curve_series(folder)
    tables = sorted({curve.players for curve in series.values()})
    fig, axes = plt.subplots(1, len(tables), figsize=(6.5 * len(tables), 6), dpi=100,
                             squeeze=False)
    for ax, players in zip(axes[0], tables):
        curves = {label: c for label, c in series.items() if c.players == players}
        # a panel per table size keeps each under the ten colours of the default cycle
        for label, curve in curves.items():
            steps, rates = zip(*curve.points)
            ax.plot([s / 1e6 for s in steps], [100 * r for r in rates], marker="o", label=label)
        for target in sorted({c.target_max_win_rate for c in curves.values()} - {None}):
            ax.axhline(100 * target, color="grey", linestyle="--", linewidth=1,
                       label=f"target for full: {100 * target:.0f}%")
        seeds = ", ".join(str(s) for s in sorted({c.eval_seed for c in curves.values()} - {None}))
        ax.set_title(f"{players} players: held-out deals, eval seed {seeds or 'not recorded'}")
        ax.set_xlabel("exploiter's learner steps (millions)")
        ax.set_ylabel("exploiter's win rate against its target (%)")
        ax.grid(alpha=0.3)
        # below the panel: inside it, some legend always hides a curve
        ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2)
    fig.suptitle("Exploiter probes")
    fig.tight_layout()
    path = folder / CURVES_PNG
    fig.savefig(path, metadata={"Description": f"granujas-docs {curves_digest(series)}",
                                "Software": None})
    plt.close(fig)
    return path
