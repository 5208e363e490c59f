package faultbed.harness.timeline;

/**
 * Which node a fault hits, decided when it fires. Role targets wait until some node plays the
 * role; a seeded choice among several candidates uses the run's random stream.
 */
public sealed interface Target {
  String describe();

  /**
   * The same choice, but never the node running the job's ApplicationMaster: on YARN the AM lives
   * on a worker, and crashing it restarts the job's master, which the seeds' JobTracker never did.
   */
  default Target sparingApplicationMaster() {
    if (!(this instanceof Role r) || r == Role.APPLICATION_MASTER || r == Role.IDLE) {
      throw new IllegalArgumentException("spareAm: applies to \"random\", \"running-reducer\", \"holding-map-outputs\" and \"most-maps\" only");
    }
    return new SparingAm(this);
  }

  /**
   * The same choice, but never a node running one of the job's reducers: a crash there loses map
   * outputs only, so the reducers that survive are the ones that must notice (the seed's induced
   * reducer death needs a live reducer whose fetches fail).
   */
  default Target sparingReducers() {
    Target role = this instanceof SparingAm s ? s.choice() : this;
    if (!(role instanceof Role r) || r == Role.APPLICATION_MASTER || r == Role.IDLE || r == Role.RUNNING_REDUCER) {
      throw new IllegalArgumentException("spareReducers: applies to \"random\", \"holding-map-outputs\" and \"most-maps\" only");
    }
    return new SparingReducers(this);
  }

  static Target node(int index) {
    return new Index(index);
  }

  static Target randomNode() {
    return Role.RANDOM;
  }

  static Target runningReducer() {
    return Role.RUNNING_REDUCER;
  }

  static Target holdingMapOutputs() {
    return Role.HOLDING_MAP_OUTPUTS;
  }

  /**
   * The node with the most map work at the moment the fault fires: maps running there plus
   * finished outputs it holds. Unlike a random node, it is a node whose loss costs work in every
   * variant, so variants compared on the same seed lose comparable work.
   */
  static Target mostMaps() {
    return Role.MOST_MAPS;
  }

  /** The node running the job's ApplicationMaster. */
  static Target applicationMaster() {
    return Role.APPLICATION_MASTER;
  }

  /** A node with no work: no attempt running, no map output held, not the ApplicationMaster. */
  static Target idle() {
    return Role.IDLE;
  }

  /** The node the previous fault of the timeline hit (e.g. RST suppression on the crashed node). */
  static Target same() {
    return new Same();
  }

  record Index(int index) implements Target {
    public Index {
      if (index < 0) {
        throw new IllegalArgumentException("node: expected an index of 0 or more, got " + index);
      }
    }

    @Override
    public String describe() {
      return "node " + index;
    }
  }

  /**
   * A node chosen when the fault fires, by what it does then; several candidates are told apart
   * by the run's seed. {@code RANDOM} is any node that is up.
   */
  enum Role implements Target {
    RANDOM("random node"),
    MOST_MAPS("the node with the most map work"),
    RUNNING_REDUCER("a node running a reducer"),
    HOLDING_MAP_OUTPUTS("a node holding finished map outputs"),
    APPLICATION_MASTER("the node running the ApplicationMaster"),
    IDLE("a node with no work");

    private final String description;

    Role(String description) {
      this.description = description;
    }

    @Override
    public String describe() {
      return description;
    }
  }

  record SparingAm(Target choice) implements Target {
    @Override
    public String describe() {
      return choice.describe() + " not running the ApplicationMaster";
    }
  }

  record SparingReducers(Target choice) implements Target {
    @Override
    public String describe() {
      return choice.describe() + " not running a reducer";
    }
  }

  record Same() implements Target {
    @Override
    public String describe() {
      return "same node as the previous fault";
    }
  }
}
