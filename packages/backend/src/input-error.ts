export { InputError, nestedFieldErrors } from "@taillab/api";
