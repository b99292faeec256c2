/** S3's rules for bucket names (the current ones, without the legacy us-east-1 leniency). */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const IPV4_ADDRESS = /^\d+\.\d+\.\d+\.\d+$/;

export function isValidBucketName(name: string): boolean {
  return (
    BUCKET_NAME.test(name) &&
    !name.includes("..") &&
    !name.includes(".-") &&
    !name.includes("-.") &&
    !IPV4_ADDRESS.test(name)
  );
}
