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
    if (this instanceof Index || this instanceof Same || this instanceof SparingAm
        || this instanceof ApplicationMaster || this instanceof Idle) {
      throw new IllegalArgumentException("spareAm: applies to \"random\", \"running-reducer\", \"holding-map-outputs\" and \"most-maps\" only");
    }
    return new SparingAm(this);
  }

  static Target node(int index) {
    return new Index(index);
  }

  static Target randomNode() {
    return new RandomNode();
  }

  static Target runningReducer() {
    return new RunningReducer();
  }

  static Target holdingMapOutputs() {
    return new HoldingMapOutputs();
  }

  /**
   * The node with the most map work at the moment the fault fires: maps running there plus
   * finished outputs it holds. Unlike a random node, it is a node whose loss costs work in every
   * variant, so variants compared on the same seed lose comparable work.
   */
  static Target mostMaps() {
    return new MostMaps();
  }

  /** The node running the job's ApplicationMaster. */
  static Target applicationMaster() {
    return new ApplicationMaster();
  }

  /** A node with no work: no attempt running, no map output held, not the ApplicationMaster. */
  static Target idle() {
    return new Idle();
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

  record RandomNode() implements Target {
    @Override
    public String describe() {
      return "random node";
    }
  }

  record RunningReducer() implements Target {
    @Override
    public String describe() {
      return "a node running a reducer";
    }
  }

  record HoldingMapOutputs() implements Target {
    @Override
    public String describe() {
      return "a node holding finished map outputs";
    }
  }

  record MostMaps() implements Target {
    @Override
    public String describe() {
      return "the node with the most map work";
    }
  }

  record ApplicationMaster() implements Target {
    @Override
    public String describe() {
      return "the node running the ApplicationMaster";
    }
  }

  record Idle() implements Target {
    @Override
    public String describe() {
      return "a node with no work";
    }
  }

  record SparingAm(Target choice) implements Target {
    @Override
    public String describe() {
      return choice.describe() + " not running the ApplicationMaster";
    }
  }

  record Same() implements Target {
    @Override
    public String describe() {
      return "same node as the previous fault";
    }
  }
}
