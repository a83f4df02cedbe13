"""What a table says while its rules are being solved, in every web language (the state frame's
``solving``; the page shows the reader's)."""

from __future__ import annotations

SOLVING_WORDS: dict[str, str] = {
    "es": "Aproximado mientras se resuelven estas reglas: los bots y el coach juegan con una búsqueda "
          "aproximada y pasan a ser exactos cuando termine (en un minuto o dos).",
    "pt": "Aproximado enquanto estas regras são resolvidas: os bots e o coach jogam com uma busca "
          "aproximada e passam a ser exatos quando terminar (em um ou dois minutos).",
    "en": "Approximate while these rules are being solved: the bots and the coach play an approximate "
          "search and become exact when it is done (in a minute or two).",
}
