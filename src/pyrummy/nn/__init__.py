"""Numpy networks over observations: the learned policy's features and inference."""
