// The part of newman's library API that realworld-postman.test.ts uses (newman ships no types).
declare module "newman" {
  interface Named {
    readonly name?: string;
  }

  /** A failure newman collected: an assertion that did not hold, a script that threw, a request that failed. */
  export interface NewmanRunFailure {
    readonly error: { readonly name?: string; readonly message?: string; readonly test?: string };
    /** Where: `assertion:3 in test-script`, `test-script:12:5`, `request`… */
    readonly at: string;
    /** The request's item in the collection. */
    readonly source?: Named;
    /** The folder the item is in. */
    readonly parent?: Named;
  }

  interface Counts {
    readonly total: number;
    readonly failed: number;
    readonly pending: number;
  }

  export interface NewmanRunSummary {
    readonly error?: Error;
    readonly run: {
      readonly stats: {
        readonly requests: Counts;
        readonly assertions: Counts;
        readonly testScripts: Counts;
      };
      readonly failures: readonly NewmanRunFailure[];
    };
  }

  export interface NewmanRunOptions {
    /** A collection (its JSON, parsed) or a path to one. */
    readonly collection: object | string;
    readonly globalVar?: readonly { readonly key: string; readonly value: string }[];
    /** Milliseconds between requests. */
    readonly delayRequest?: number;
    /** Milliseconds a request may take. */
    readonly timeoutRequest?: number;
    readonly reporters?: string | readonly string[];
  }

  const newman: {
    run(
      options: NewmanRunOptions,
      callback: (error: Error | null, summary: NewmanRunSummary) => void,
    ): unknown;
  };
  export default newman;
}
