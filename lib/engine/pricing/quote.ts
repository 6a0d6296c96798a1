// THROWAWAY: an engine folder importing the domain (a layer break), and tokens → payments (a folder loop).
import { createSession } from "../../domain/payments/create-session";

export const quote = createSession;
