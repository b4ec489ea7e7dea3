"""Datasets (MultiTQ, TimelineCronQ-R, TimeQuestions loaders), KG synthesiser, question
generator with its brute-force gold oracle, and the embedded default dataset."""

from tkgqa_ray.data.loaders import (
    DATASET_NAMES,
    Dataset,
    DatasetError,
    load_dataset,
    load_questions,
)

__all__ = ["DATASET_NAMES", "Dataset", "DatasetError", "load_dataset", "load_questions"]
