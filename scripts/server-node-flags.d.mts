/** Node flags of the headless API server (see server-node-flags.mjs). */
export declare const SERVER_NODE_FLAGS: string[];
