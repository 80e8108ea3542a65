package io.gluecat.it.runtime;

/** The runtime journey with gluecat as a catalog of its own (named mode). */
class RuntimeJourneyIT extends RuntimeJourney {}
