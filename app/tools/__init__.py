"""The offline tools behind ``aer``'s commands: eval (+ report), bench, loadtest, DPO export, trajectories, the
local LLM, and the statistics they share. The service never imports a tool's command."""
