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
    """Draw the exploiter curves of the result files in ``folder`` into ``folder/exploit_curves.png``."""
    series = curve_series(folder)
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    for label, points in series.items():
        steps, rates = zip(*points)
        ax.plot([s / 1e6 for s in steps], [100 * r for r in rates], marker="o", label=label)
    ax.axhline(55, color="grey", linestyle="--", linewidth=1, label="target for full: 55%")
    ax.set_xlabel("exploiter's learner steps (millions)")
    ax.set_ylabel("exploiter's win rate against its target (%)")
    ax.set_title("Exploiter probes: held-out deals, eval seed 4242")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = folder / CURVES_PNG
    fig.savefig(path, metadata={"Description": f"granujas-docs {curves_digest(series)}",
                                "Software": None})
    plt.close(fig)
    return path
