"""Check your own one-layer transformer on Markov data against the focus-dilution theory.

Your model satisfies ``theorems.focus_dilution.models.OneLayerTransformer`` with one method,
``population_loss(pi, P, W0, W1, WQ, WK)``: its population loss on the chain ``(pi, P)`` when its weights
are the paper's parameters -- embedding ``W0`` (d x m), unembedding ``W1`` (m x d), query and key maps
``WQ``, ``WK`` (m x m_k).  The check takes the Hessian of your loss at the saddle theta_c^1 with
``torch.func.hessian`` and evaluates ``focus.stage2.saddle_eigenstructure`` on it::

    python examples/focus_user_transformer.py
    verify run focus.stage2.saddle_eigenstructure --model examples.focus_user_transformer:MyTransformer

``focus.stage1.condensation`` integrates the gradient flow of your loss from a small start and compares the
growth rate of sigma1(W0) with mu0 = |pi||v| (``verify run focus.stage1.condensation --model ...``);
``focus.stage4.transverse_mode`` takes the Hessian of your loss at the degenerate point theta2_delta
(hidden width m = 2, key width m_k = 1: your adapter must accept any m, m_k).  Two claims integrate the
gradient flow of your loss from theta_c^1 (m = 2, m_k = 1, W_Q, W_K of scale 1e-6): stage II,
``focus.stage2.focus_as_stated`` (|(W_Q, W_K)|^2 grows at twice the unstable eigenvalue of your Hessian,
along its eigenvector, and attention on the most frequent token rises) and stage III,
``focus.stage3.mass_redistribution`` (the embedding moves off the plateau as kappa rho) and
``focus.stage3.opposite_motion_as_stated`` (frequent and rare tokens move in opposite directions).

The broken variants are what the checks catch: a 1/sqrt(m_k) score scaling the paper's model does not
have (the growth rate c changes), an attention normalised over the queries instead of the keys, and a
stop-gradient on the scores' embeddings (``DetachedScores``: every Hessian check passes, the stage-III
flow refutes it), and an attention that forgets the keys' frequencies (``UniformKeys``: the embedding
does not split into a frequent prefix moving one way and the rest the other,
``focus.stage3.opposite_motion_as_stated``)::

    verify run focus.stage3.mass_redistribution --model examples.focus_user_transformer:DetachedScores
"""

from __future__ import annotations

import math

import torch


class MyTransformer(torch.nn.Module):
    """A user-written one-layer attention-only transformer, evaluated in the population limit: a query
    token q attends over context tokens k in proportion to their frequency pi_k times exp(score)."""

    def attend(self, scores: torch.Tensor, pi: torch.Tensor) -> torch.Tensor:
        w = pi[None, :] * torch.exp(scores - scores.max(dim=1, keepdim=True).values)
        return w / w.sum(dim=1, keepdim=True)

    def population_loss(self, pi, P, W0, W1, WQ, WK):
        emb = W0                                  # one-hot tokens embedded: row q of W0
        scores = (emb @ WQ) @ (emb @ WK).T        # query-key scores
        A = self.attend(scores, pi)
        logits = A @ emb @ W1                     # attention output through the unembedding
        logp = torch.log_softmax(logits, dim=1)
        return -(pi[:, None] * P * logp).sum()


class ScaledScores(MyTransformer):
    """Broken: a 1/sqrt(m_k) scaling of the scores that the paper's model does not have."""

    def population_loss(self, pi, P, W0, W1, WQ, WK):
        return super().population_loss(pi, P, W0, W1, WQ / math.sqrt(WQ.shape[1]), WK)


class AttentionOverQueries(MyTransformer):
    """Broken: the attention weights are normalised over the queries (dim 0)."""

    def attend(self, scores: torch.Tensor, pi: torch.Tensor) -> torch.Tensor:
        w = pi[None, :] * torch.exp(scores)
        return w / w.sum(dim=0, keepdim=True)


class DetachedScores(MyTransformer):
    """Broken: the query-key scores read the embedding through ``.detach()`` (a stop-gradient some
    implementations put on the attention logits), so the embedding learns only through the value path.  At
    the origin and at theta_c1 (W_Q = W_K = 0) the Hessian is unchanged; along the flow from theta_c1 the
    embedding misses the forcing kappa (G_Phi + G_Phi^T) gamma and moves by the wrong rho."""

    def population_loss(self, pi, P, W0, W1, WQ, WK):
        emb = W0
        scores = (emb.detach() @ WQ) @ (emb.detach() @ WK).T
        A = self.attend(scores, pi)
        logp = torch.log_softmax(A @ emb @ W1, dim=1)
        return -(pi[:, None] * P * logp).sum()


class UniformKeys(MyTransformer):
    """Broken: the population attention forgets the keys' frequencies (softmax of the scores alone, where a
    context of the chain holds key k with frequency pi_k): at theta_c1 the attention is uniform, not 1 pi^T,
    and the embedding drifts at O(1) instead of moving as kappa rho."""

    def attend(self, scores: torch.Tensor, pi: torch.Tensor) -> torch.Tensor:
        return torch.softmax(scores, dim=1)


def main() -> int:
    from verify import check_model

    for model in (MyTransformer(), ScaledScores(), AttentionOverQueries(), DetachedScores(), UniformKeys()):
        for claim in ("focus.stage2.saddle_eigenstructure", "focus.stage1.condensation",
                      "focus.stage2.focus_as_stated", "focus.stage3.mass_redistribution",
                      "focus.stage3.opposite_motion_as_stated", "focus.stage4.transverse_mode"):
            out = check_model(claim, model)
            ev = out.checks[0].evidence
            print(f"{type(model).__name__:22s} {claim:36s} {out.verdict.value}")
            if ev.counterexample is not None:
                print(f"    {ev.counterexample.description[:160]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
