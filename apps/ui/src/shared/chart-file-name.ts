import { createContext } from "react";

/**
 * What the charts below are of (a run's name and id, the runs compared), put in front of a
 * downloaded chart's file name: the same chart of two runs saves as two files.
 */
export const ChartFileSubject = createContext("");
