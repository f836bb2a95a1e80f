"scikit-learn's estimator checks for the monitoring detectors that are plain outlier detectors (fit(X[, y]), score_samples, predict)."
from sklearn.utils.estimator_checks import parametrize_with_checks
from trustnb.monitor.ood_dcc import DynamicCovarianceOOD, Mahalanobis, ResidualMahalanobis

@parametrize_with_checks([Mahalanobis(), DynamicCovarianceOOD(residual_dim=1, update='psd'), DynamicCovarianceOOD(residual_dim=1, update='none'),
                          ResidualMahalanobis(residual_dim=1)])
def test_sklearn_compatible_outlier_detector(estimator, check):
    check(estimator)
