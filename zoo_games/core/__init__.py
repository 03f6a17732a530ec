"""The parts every game shares: rules-core protocol, PettingZoo adapter, wrappers, drawing."""
