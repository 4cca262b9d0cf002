"""t2-onestep-given-p1's one-step maximum is taken over a grid refined around its peak (session 43, the authors'
favour): the refinement lies strictly between the best rate's neighbours, adds no rate twice, and can change the
decision — a coarse near miss becomes a pass when a rate between grid points reaches the multi-step accuracy."""
import numpy as np

from derivations.knowledge.claims.app_g_finetuning import onestep_decision, peak_refinement


def test_refinement_lies_between_the_best_rates_neighbours():
    etas = (0.3, 1.0, 3.0, 10.0, 20.0, 30.0, 40.0, 50.0)
    fine = peak_refinement(etas, [0, 0, 0, 0, 0.4, 0.77, 0.57, 0.1])
    assert len(fine) == 8 and all(20.0 < e < 40.0 for e in fine) and not set(fine) & set(etas)
    assert fine == sorted(fine)
    assert all(e < 1.0 for e in peak_refinement(etas, [0.9, 0.1, 0, 0, 0, 0, 0, 0]))  # an end: its one neighbour


def test_a_rate_between_grid_points_can_decide():
    coarse, n_ood = (10.0, 20.0, 40.0, 1000.0), 9
    acc = np.array([[0.5, 0.5], [0.8, 0.8], [0.6, 0.6], [0.0, 0.0]])
    assert onestep_decision(coarse, acc, 0.9, 0.0, n_ood).status.value == "inconclusive"  # short by 0.9 pair
    grid = (10.0, 20.0, 28.3, 40.0, 1000.0)
    fine = np.array([[0.5, 0.5], [0.8, 0.8], [0.95, 0.95], [0.6, 0.6], [0.0, 0.0]])
    assert onestep_decision(grid, fine, 0.9, 0.0, n_ood).status.value == "holds"
    far = np.array([[0.5, 0.5], [0.6, 0.6], [0.65, 0.65], [0.6, 0.6], [0.0, 0.0]])
    assert onestep_decision(grid, far, 0.9, 0.0, n_ood).status.value == "refuted"  # short by 2.25 pairs
