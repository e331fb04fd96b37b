"""``aer bench``: the synthetic corpus (``corpus``), the timing instruments (``timing``), the server harness
(``harness``) and the command that runs them (``command``)."""
