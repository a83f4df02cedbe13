"""The turn shared by every family of kernels (:mod:`cubilete.turn.core`): below the solver, the win
tables and the duel, which compute the best box per hand in their own terms and call it for the rest."""
