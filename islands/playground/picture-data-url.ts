// A picture as a data: URL for an image_url part. Photos from a phone are megabytes; vision
// models look at about 2000 pixels at most, so larger pictures are scaled down (JPEG) before they
// go into the request and the saved conversation. Small ones are sent as they are.
const largestSide = 2048;
const keepAsIsBytes = 1_000_000;

function readAsDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("read failed"));
    reader.readAsDataURL(blob);
  });
}

export async function pictureDataUrl(file: File): Promise<string> {
  if (file.size <= keepAsIsBytes || file.type === "image/gif") return readAsDataUrl(file);
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, largestSide / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(bitmap.width * scale);
  canvas.height = Math.round(bitmap.height * scale);
  canvas.getContext("2d")!.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.85));
  if (!blob) throw new Error("encode failed");
  return readAsDataUrl(blob);
}
