"""Training the salience model (salience_model.py) on documents with known salient entities (SciREX).

A candidate is a positive example when its name matches one of the document's salient entities of its type, by
the rule the benchmarks score with (benchmark.py), so the model learns what the score rewards. One L2-regularised
logistic regression per type, fitted by Newton's method on standardised features (deterministic: no sampling, no
seed). Each type's threshold is the one that maximises the document-level F1 of out-of-fold probabilities (K
folds by document), so it is chosen on predictions for documents the fold's model did not see.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from extractors.scoring import norm
from extractors.semantic.abbreviations import Abbreviation
from extractors.semantic.benchmark import TYPES, EntityCounts, matches, score_type
from extractors.semantic.passages import Passage
from extractors.semantic.salience import Entity
from extractors.semantic.salience_model import Peers, SalienceModel, TypeModel, defined_keys, features

L2 = 10.0  # on standardised features; F1 moved by less than 0.01 from 0.1 to 30 in cross-validation
FOLDS = 5
THRESHOLDS = tuple(round(0.05 + 0.025 * i, 3) for i in range(35))  # 0.05 .. 0.9
_NEWTON_STEPS = 30
_KIND = {label: kind for kind, label in TYPES.items()}  # entity label -> the benchmark's type


@dataclass(frozen=True)
class TrainingDocument:
    ranked: list[Entity]  # candidates from entities.candidates()
    passages: list[Passage]
    pairs: list[Abbreviation]
    gold: dict[str, list[list[str]]]  # benchmark type -> salient entities, each as its surface forms


@dataclass(frozen=True)
class _Examples:
    x: np.ndarray
    y: np.ndarray
    document: np.ndarray  # index of each example's document
    names: list[str]  # each example's entity name


def family_names(documents: list[TrainingDocument]) -> tuple[str, ...]:
    return tuple(sorted({f for d in documents for e in d.ranked for f in e.families}))


def examples(documents: list[TrainingDocument], label: str, families: tuple[str, ...],
             feature_names: tuple[str, ...]) -> _Examples:
    rows, y, where, names = [], [], [], []
    for n, d in enumerate(documents):
        same = [e for e in d.ranked if e.label == label]
        peers, defined = Peers.of(same), defined_keys(d.pairs)
        forms = [[norm(f) for f in entity] for entity in d.gold.get(_KIND[label], [])]
        for e in same:
            values = features(e, peers, d.passages, defined, families)
            rows.append([values[f] for f in feature_names])
            y.append(float(any(matches(norm(e.name), f) for f in forms)))
            where.append(n)
            names.append(e.name)
    return _Examples(np.array(rows, dtype=float).reshape(len(rows), len(feature_names)), np.array(y),
                     np.array(where, dtype=int), names)


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = L2) -> TypeModel:
    """Weights on standardised features (a feature constant in training gets weight 0), threshold 0.5."""
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-12] = 1.0
    z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    penalty = l2 * np.eye(z.shape[1])
    penalty[-1, -1] = 0.0  # the bias is not shrunk
    w = np.zeros(z.shape[1])
    for _ in range(_NEWTON_STEPS):
        p = 1 / (1 + np.exp(-z @ w))
        gradient = z.T @ (p - y) + penalty @ w
        hessian = (z * (p * (1 - p))[:, None]).T @ z + penalty
        w -= np.linalg.solve(hessian, gradient)
    return TypeModel(tuple(mean.tolist()), tuple(scale.tolist()), tuple(w[:-1].tolist()), float(w[-1]), 0.5)


def probabilities(model: TypeModel, x: np.ndarray) -> np.ndarray:
    z = (x - np.array(model.mean)) / np.array(model.scale) @ np.array(model.weights) + model.bias
    return 1 / (1 + np.exp(-np.clip(z, -50, 50)))


def out_of_fold(data: _Examples, folds: int = FOLDS, l2: float = L2) -> np.ndarray:
    """Each example's probability from the model fitted on the other folds (documents assigned round-robin)."""
    fold = data.document % folds
    out = np.zeros(len(data.y))
    for k in range(folds):
        train, test = fold != k, fold == k
        if test.any():
            out[test] = probabilities(fit_logistic(data.x[train], data.y[train], l2), data.x[test])
    return out


def counts_at(documents: list[TrainingDocument], label: str, data: _Examples, p: np.ndarray,
              threshold: float) -> EntityCounts:
    """Document-level scores of the candidates whose probability reaches `threshold`, summed over documents."""
    out = EntityCounts()
    for n, d in enumerate(documents):
        chosen = [data.names[i] for i in np.flatnonzero((data.document == n) & (p >= threshold))]
        out.add(score_type(d.gold.get(_KIND[label], []), chosen))
    return out


def calibration_error(p: np.ndarray, y: np.ndarray, bins: int = 10) -> float:
    """Expected calibration error: the mean gap between predicted and observed rates over equal-width bins."""
    which = np.minimum((p * bins).astype(int), bins - 1)
    return float(sum(abs(p[which == b].mean() - y[which == b].mean()) * (which == b).sum()
                     for b in range(bins) if (which == b).any()) / max(len(y), 1))


def train(documents: list[TrainingDocument], l2: float = L2, folds: int = FOLDS) -> SalienceModel:
    """The model of each type, with the threshold chosen on out-of-fold predictions, and its training record."""
    if len(documents) < folds:
        raise ValueError(f"{len(documents)} training documents cannot make {folds} folds")
    families = family_names(documents)
    probe = next(((e, d) for d in documents for e in d.ranked), None)
    if probe is None:
        raise ValueError("no candidate entities in the training documents")
    e, d = probe
    feature_names = tuple(features(e, Peers.of([e]), d.passages, set(), families))
    types, record = {}, {}
    for label in TYPES.values():
        data = examples(documents, label, families, feature_names)
        if not data.y.any() or data.y.all():
            raise ValueError(f"the training documents give {len(data.y)} {label} candidates, {int(data.y.sum())} of "
                             "them salient: a model needs both kinds")
        p = out_of_fold(data, folds, l2)
        f1, threshold = max((counts_at(documents, label, data, p, t).f1, t) for t in THRESHOLDS)
        best = counts_at(documents, label, data, p, threshold)
        fitted = fit_logistic(data.x, data.y, l2)
        types[label] = TypeModel(fitted.mean, fitted.scale, fitted.weights, fitted.bias, threshold)
        record[label] = {"examples": len(data.y), "positive": int(data.y.sum()), "threshold": threshold,
                         "out_of_fold": {"f1": round(f1, 4), "precision": round(best.precision, 4),
                                         "recall": round(best.recall, 4)},
                         "calibration_error": round(calibration_error(p, data.y), 4)}
    return SalienceModel(families, feature_names, types,
                         {"documents": len(documents), "l2": l2, "folds": folds, "types": record})
