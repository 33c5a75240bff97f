"""Board logic: sensing, and later tracker, game controller, LEDs, journal, protocol."""
