"Contract cases for trustnb.learn.flower (chapter 9, issue 26.2): the constructors; the runs start processes (tests/test_scale_flower.py)."
from contract import Case
from trustnb.learn import flower as FL

FL.require_flwr()  # without the `scale` extra this raises "pip install 'trustnb[scale]'" and the family's cases are skipped

_HCFL = dict(n_clusters=1, assignment='soft', weight_level='sample', shared_body=True, adaptive=True, hidden=4, lr=0.1, local_steps=2,
             batch_size=4, split_thresh=0.6, merge_thresh=0.3, remove_thresh=0.02, seed=0)
_DP = dict(method='nc', T=3, sampling_rate=0.5, epsilon=1.0, delta=1e-5, lr=0.1, batch_size=5, clip=1.0, weight_decay=1e-3, seed=0, noise_stream='client')
CASES = [
    Case(FL.LocalFederation, dict(n_nodes=2, startup_timeout=30.0), kinds=dict(n_nodes='count', startup_timeout='positive')),  # constructing starts nothing
    Case(FL.HCFLFlowerStrategy, _HCFL, kinds=dict(n_clusters='count', hidden='count', local_steps='count', batch_size='count', lr='positive',
                                                  remove_thresh='prob', split_thresh='nonneg', merge_thresh='nonneg', seed='nonneg')),
    Case(FL.DPFLFlowerStrategy, _DP, kinds=dict(T='count', sampling_rate='prob', epsilon='positive', delta='prob', lr='positive', batch_size='count',
                                                clip='positive', weight_decay='nonneg', seed='nonneg')),
]
EXEMPT = {
    'trustnb.learn.flower.require_flwr': 'no arguments (raises the extra-naming ImportError; tested in tests/test_scale_flower.py)',
    'trustnb.learn.flower.client_app': 'no arguments (builds the Flower ClientApp; run by SuperNodes in tests/test_scale_flower.py)',
    'trustnb.learn.flower.server_app': 'no arguments (builds the Flower ServerApp; run by the SuperLink in tests/test_scale_flower.py)',
    'trustnb.learn.flower.hcfl_flower': 'starts Flower processes (tens of seconds); its bad inputs are checked in the notebook before any process starts',
    'trustnb.learn.flower.dp_fl_flower': 'starts Flower processes (tens of seconds); its bad inputs are checked in the notebook before any process starts',
}
