"""cpc: the CPC (Continuation-Passing C) translator."""
