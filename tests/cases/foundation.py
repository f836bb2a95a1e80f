"Contract cases for the foundation modules (core, data, zoo, hooks, viz, repro)."
import numpy as np
from contract import Case, Est
from trustnb import core
CASES = [
    Case(core.check_array, dict(x=np.ones((3, 2)), name='x', ndim=2), skip=('name',)),
]
EXEMPT = {}
