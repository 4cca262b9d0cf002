"""What the paper (or its recorded secondary sources) prints, transcribed verbatim with its location — the
thing under test.  Almost every formula was lost in extraction; these are the pieces that survive, each
transcribed here once."""
from __future__ import annotations

import math

#: App. A, Table 3: training loss and OOD accuracy per model (the optimum loss is 0.8047).
TABLE3 = {"standard": (0.8064, 1.00), "uniform": (0.8068, 1.00), "attention-only": (5.5875, None),
          "simplified": (0.8200, 0.99), "optimum": 0.8047}

#: Lemma 14 (App. F.4, used in Lemma 16's proof): "the attention scores of tokens [s] and [r] are at least 0.3"
#: throughout Stage III (RECOVERED-SEED number).
LEMMA14_FLOOR = 0.3

#: App. J.1: "During fine-tuning, we implement a total of 2000 iterations to determine the optimal number of
#: iterations for OOD generalization."
J1_FT_ITERATIONS = 2000


def oodbound(n_ft: float, K: float, R: float) -> float:
    """Thm 2(2), Eq. (14)/(2) as reported by the secondary summary (sciencestack.ai, 2508.00901):
    L_OOD ≤ exp(−Ñ_f K² log|𝓡| / (2|𝓡|²))."""
    return math.exp(-n_ft * K ** 2 * math.log(R) / (2 * R ** 2))
